"""CHAD-C from Python: load a program, evaluate and differentiate its
definitions on numpy arrays and Python values (python/README.md).

    import chad
    prog = chad.loads("def f (x : real, v : [real]) : real = x * sum v")
    prog.f(2.0, [1.0, 2.0])                  # 6.0
    prog.f.grad(2.0, [1.0, 2.0])             # (3.0, array([2., 2.]))
    prog.f.grad(2.0, [1.0, 2.0], evaluator="ball")   # certified

libchad (build/pic/libchad.so.0 of the source tree, CHAD_LIBRARY, or an
installed libchad.so.0) is used through ctypes; it is not thread safe, so
every call holds one process-wide lock.
"""
from ._errors import (ChadError, ChadRuntimeError, InputError, NotDifferentiable, Undecided,
                      UsageError, MEANING)
from ._program import (Certificate, Enclosure, Function, Limit, Program, Result, load, loads)
from ._gradcheck import GradcheckError, Mismatch, Verdict, check_jacobian, gradcheck, ulps
from . import _lib
from . import vectors

RuntimeError = ChadRuntimeError
library_path = _lib.path

__all__ = ["load", "loads", "Program", "Function", "Result", "Certificate", "Enclosure",
           "Limit", "ChadError", "UsageError", "InputError", "RuntimeError", "ChadRuntimeError",
           "NotDifferentiable", "Undecided", "MEANING", "gradcheck", "check_jacobian",
           "GradcheckError", "Mismatch", "Verdict", "ulps", "library_path", "vectors"]
