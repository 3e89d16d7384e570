import shutil

import pytest

from sentemb.core.data.sources import catalogue, fetch, fetch_sources, sha256_of, source_files
from sentemb.core.errors import SentembError


def test_catalogue_matches_the_mirror(shared):
    for files in catalogue().values():
        for f in files:
            p = shared / f.path
            assert p.is_file(), f.path
            assert p.stat().st_size == f.bytes, f.path
    assert all(f.url.startswith("http") for f in source_files("sts2016"))


def test_fetch_from_mirror_verifies_sha256(shared, tmp_path):
    out = fetch_sources(["sts2013"], shared, tmp_path / "raw")
    assert len(out) == 7 and all(p.is_file() for p in out)
    assert sha256_of(out[0]) == source_files("sts2013")[0].sha256


def test_checksum_mismatch_leaves_no_file(shared, tmp_path):
    f = source_files("sts2012")[0]
    mirror = tmp_path / "mirror"
    (mirror / f.path).parent.mkdir(parents=True)
    shutil.copyfile(shared / f.path, mirror / f.path)
    with open(mirror / f.path, "a") as fh:
        fh.write("tampered\n")
    with pytest.raises(SentembError, match="sha256 mismatch"):
        fetch(f, mirror, tmp_path / "raw", use_network=False)
    assert not (tmp_path / "raw" / f.path).exists()
    assert list((tmp_path / "raw" / f.path).parent.iterdir()) == []  # no temporary file either


def test_missing_source_and_unknown_name(tmp_path):
    f = source_files("gutenberg-01")[0]
    with pytest.raises(SentembError, match=r"missing from the mirror .* no official URL"):
        fetch(f, tmp_path, tmp_path / "raw")
    with pytest.raises(SentembError, match="unknown source 'sts2017'"):
        fetch_sources(["sts2012", "sts2017"], tmp_path, tmp_path / "raw2")
    assert not (tmp_path / "raw2").exists()  # nothing written before the name check failed


def test_archive_members_are_found_by_name_in_zip_and_tar(shared, tmp_path):
    """The official packages are zips (STS, SICK) and a tar.gz (STS-B); the file is taken by its base name."""
    import io
    import tarfile
    import zipfile

    from sentemb.core.data.sources import _member

    data = (shared / "stsbenchmark/sts-dev.csv").read_bytes()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("stsbenchmark/readme.txt", b"x")
        zf.writestr("stsbenchmark/sts-dev.csv", data)
    assert _member(buf.getvalue(), "sts-dev.csv", "u") == data
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        info = tarfile.TarInfo("stsbenchmark/sts-dev.csv")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    assert _member(buf.getvalue(), "sts-dev.csv", "u") == data
    with pytest.raises(SentembError, match=r"archive has no member named 'sts-test\.csv'"):
        _member(buf.getvalue(), "sts-test.csv", "u")
