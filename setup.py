"""Builds the optional C parts (everything else is in pyproject.toml): the Senior Wrangler
solver's beam search and the layout reader's card placing.

Both are optional: where no C compiler is found the install still succeeds, the solver uses its
pure-Python search (slower: fewer deals decided within a second) and the reader its numpy placing
(same readings, slower).
"""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("advisor._swfast", ["advisor/_swfast.c"], optional=True, extra_compile_args=["-O2"]),
    # (no fused multiply-adds: the reader's arithmetic must round as numpy's does, to read the same layouts;
    # -O3 lets the vote's divisions run two at a time, rounded as one at a time)
    Extension("vision._readfast", ["vision/_readfast.c"], optional=True,
              extra_compile_args=["-O3", "-ffp-contract=off"]),
])
