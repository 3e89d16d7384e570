"""The reports: each paper's tables and claims beside its published numbers (``reference/*.csv``), from the
pipeline's outputs (:mod:`.workspace`), and the headline metrics.

- :mod:`.kenter2016`, :mod:`.bollegala2018`, :mod:`.wieting2016`, :mod:`.wieting2017`: one report per paper;
  their settings in :mod:`.config`.
- :mod:`.tables`: the reference tables' readers and the table builders; :mod:`.significance`: Wilcoxon, Williams,
  Fisher z; :mod:`.claims`: the verdict of a claim and the claims list.
- :mod:`.headline`: the one DVC metrics file, ``metrics/headline.json``.
- :mod:`.inputs`: what the reports read of DVC's cache, kept in git (``reports/inputs/``); :mod:`.workspace`: the
  readers of every output the reports read.
"""
