"""Exceptions: one class per exit code of the command line (README "Exit
codes"), each carrying the message, file, line, col and exit code."""
import builtins

MEANING = {
    1: "usage error",
    2: "input error",
    3: "runtime error",
    4: "not differentiable (or undefined) at the point",
    5: "undecided at the precision cap",
}


class ChadError(Exception):
    """An error of libchad. Attributes: message, file ('' when not about a
    file), line and col (1-based, 0 when unknown), exit_code (what `chad`
    would exit with) and meaning (the exit code's meaning)."""

    exit_code = 0

    def __init__(self, message, file="", line=0, col=0, exit_code=None):
        if exit_code is not None:
            self.exit_code = exit_code
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.meaning = MEANING.get(self.exit_code, "error")
        super().__init__(self.where() + message)

    def where(self):
        if not self.file:
            return ""
        if self.line:
            return "%s:%d:%d: " % (self.file, self.line, self.col)
        return "%s: " % self.file


class UsageError(ChadError):
    """Exit code 1: unknown function, missing arguments, bad option."""
    exit_code = 1


class InputError(ChadError):
    """Exit code 2: parse, type or JSON error, unreadable file."""
    exit_code = 2


class ChadRuntimeError(ChadError, builtins.RuntimeError):
    """Exit code 3: index out of bounds, integer division by zero, heap
    limit, a non-finite number in a result (fast and ref evaluators).
    Exported as chad.RuntimeError."""
    exit_code = 3


class NotDifferentiable(ChadError):
    """Exit code 4 (evaluator "ball"): no derivative at the point.

    Two kinds, as the certified evaluator reports them:
    - a branch point (a kink of abs, a tie of max/min, a comparison of equal
      numbers) whose sides disagree: `branch_points` lists them (dicts with
      "at", "op", "what", "value"), `limits` the result on each combination
      of sides (Limit(branches, result, realized), result a Result
      converted like the command's own), `complete` whether every
      combination is listed. `is_kink` is True.
    - a domain edge (sqrt' or log' at 0, log of a negative number, ...):
      `result` is the command's Result with float('nan') in each undefined
      entry and `result.undefined` the mask of those entries; `branch_points`
      and `limits` are empty; `is_kink` is False. For eval, the value is
      undefined there."""
    exit_code = 4

    def __init__(self, message, file="", line=0, col=0, branch_points=(), limits=(),
                 complete=True, result=None):
        super().__init__(message, file, line, col)
        self.branch_points = list(branch_points)
        self.limits = list(limits)
        self.complete = complete
        self.result = result
        self.is_kink = bool(self.branch_points)


class Undecided(ChadError):
    """Exit code 5 (evaluator "ball"): not decided.

    - at the precision cap: `result` is the command's Result with
      float('nan') in each undecided entry and `result.undecided` their
      mask, or None when a comparison could not be decided (no output);
    - the differentiability, at a branch point whose sides give different
      results none of which is proved a one-sided limit against another
      (a tie nearby points may not leave, `x - x <= 0.0`): `branch_points`,
      `limits` and `complete` as for NotDifferentiable (if the function is
      differentiable there, its derivative is one of the limits' results);
      `is_kink` is True and `result` None.
    `is_kink` is False in the first case."""
    exit_code = 5

    def __init__(self, message, file="", line=0, col=0, result=None, branch_points=(),
                 limits=(), complete=True):
        super().__init__(message, file, line, col)
        self.result = result
        self.branch_points = list(branch_points)
        self.limits = list(limits)
        self.complete = complete
        self.is_kink = bool(self.branch_points)


CLASSES = {1: UsageError, 2: InputError, 3: ChadRuntimeError, 4: NotDifferentiable,
           5: Undecided}


def from_diag(d, **extra):
    cls = CLASSES.get(d.exit_code, ChadError)
    msg = d.msg.decode("utf-8", "replace")
    file = d.file.decode("utf-8", "replace")
    if cls is ChadError:
        return ChadError(msg, file, d.line, d.col, exit_code=d.exit_code)
    return cls(msg, file, d.line, d.col, **extra)
