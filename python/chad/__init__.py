"""CHAD-C from Python: load a program, evaluate and differentiate its
definitions on numpy arrays and Python values (python/README.md).

    import chad
    prog = chad.loads("def f (x : real, v : [real]) : real = x * sum v")
    prog.f(2.0, [1.0, 2.0])                  # 6.0
    prog.f.grad(2.0, [1.0, 2.0])             # (3.0, array([2., 2.]))
    prog.f.grad(2.0, [1.0, 2.0], evaluator="ball")   # certified

libchad is used through ctypes, found as CHAD_LIBRARY says, else beside
the package, else in the checkout's build/pic, else by the dynamic loader
(chad.library_path says which, python/chad/_lib.py); it is not thread safe, so
every call holds one process-wide lock.
"""
try:
    import numpy as _numpy  # noqa: F401
except ImportError as _e:
    raise ImportError("chad needs numpy (Debian: apt-get install python3-numpy, for "
                      "/usr/bin/python3)") from _e
from ._errors import (ChadError, ChadRuntimeError, InputError, NotDifferentiable, Undecided,
                      UsageError, MEANING)
from ._program import (Certificate, Enclosure, Function, Limit, Program, Result, load, loads)
from ._check import Entry, Kink, Verdict
from ._gradcheck import GradcheckError, check_jacobian, gradcheck, ulps
from . import _lib
from . import vectors

RuntimeError = ChadRuntimeError
library_path = _lib.path

__all__ = ["load", "loads", "Program", "Function", "Result", "Certificate", "Enclosure",
           "Limit", "ChadError", "UsageError", "InputError", "RuntimeError", "ChadRuntimeError",
           "NotDifferentiable", "Undecided", "MEANING", "gradcheck", "check_jacobian",
           "GradcheckError", "Verdict", "Entry", "Kink", "ulps", "library_path", "vectors"]
