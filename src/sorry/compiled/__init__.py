"""What the compiled engine needs without numba (the ``fast`` extra's numpy alone).

- :mod:`sorry.compiled.arrays`: the layouts of the kernels' arrays and the functions that fill
  them from the core's objects (the kernels of :mod:`sorry.fast` read their indices there);
- :mod:`sorry.compiled.aot`: the rollouts compiled ahead of time by ``sorry compile``, loaded
  without numba (a fresh ``sorry hint`` in 0.3 s).
"""
