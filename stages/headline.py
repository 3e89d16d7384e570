"""headline: the figures a review compares, in the one DVC metrics file → metrics/headline.json: per evaluated model
(metrics/models/) the Pearson ×100 means over STS 2012-2015 and over every dataset, per supervised run
(metrics/supervised/) the test r on STS and SICK, per paper (metrics/claims/) each testable claim's verdict as a number
(sentemb.reporting.headline)."""

from _common import run

from sentemb.core.atomic import write_json
from sentemb.reporting.headline import headline


def main() -> None:
    out = headline()
    write_json("metrics/headline.json", out)
    print(f"headline: {len(out)} rows → metrics/headline.json")


if __name__ == "__main__":
    run(main)
