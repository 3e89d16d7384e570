"""The runtime: the device a trainer runs on (:mod:`.device`), data-parallel processes under torchrun
(:mod:`.distributed`), thread counts and reproducible square roots on the CPU (:mod:`.threads`), and the cache
prefetch of compiled loops (:mod:`.prefetch`)."""
