"""Run under torchrun by tests/test_training.py: one trainer on a toy problem in a Gloo process group; rank 0 saves
the trained weights (``.npy``) and the statistics (``.json``) to the path prefix given."""

import json
import sys

import numpy as np
import torch

from sentemb.core.runtime.distributed import init_distributed, is_main_process, world


def main(kind: str, out: str) -> None:
    assert init_distributed(), "run me with torchrun --nproc_per_node 2"
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    if kind == "siamese_cbow":
        from test_training import _siamese_toy_run

        weights, stats = _siamese_toy_run()
    else:
        from test_paraphrastic import _paraphrastic_toy_run

        weights, stats = _paraphrastic_toy_run()
    w = torch.as_tensor(np.asarray(weights, dtype=np.float64))
    low, high = w.clone(), w.clone()
    torch.distributed.all_reduce(low, op=torch.distributed.ReduceOp.MIN)
    torch.distributed.all_reduce(high, op=torch.distributed.ReduceOp.MAX)
    if is_main_process():
        np.save(out + ".npy", weights)
        with open(out + ".json", "w") as fh:
            json.dump({"world": world()[1], "stats": stats, "spread": float((high - low).max())}, fh, default=str)
    torch.distributed.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
