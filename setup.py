"""Builds the optional C part of the Senior Wrangler solver (everything else is in pyproject.toml).

The extension is optional: where no C compiler is found the install still succeeds and the
solver uses its pure-Python search (slower: fewer deals decided within a second).
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("advisor._swfast", ["advisor/_swfast.c"], optional=True,
                             extra_compile_args=["-O2"])])
