"""Builds the optional C parts (everything else is in pyproject.toml): the Senior Wrangler
solver's beam search and the layout reader's card placing.

Both are optional: where no C compiler is found the install still succeeds, the solver uses its
pure-Python search (slower: fewer deals decided within a second) and the reader its numpy placing
(same readings, slower).
"""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("advisor._swfast", ["advisor/_swfast.c"], optional=True, extra_compile_args=["-O2"]),
    # (no fused multiply-adds: the placing must round as numpy does, to read the same layouts)
    Extension("vision._readfast", ["vision/_readfast.c"], optional=True,
              extra_compile_args=["-O2", "-ffp-contract=off"]),
])
