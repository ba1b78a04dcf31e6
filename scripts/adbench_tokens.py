"""ADBench's text format as the converters read it: whitespace-separated
numbers taken in order, with a clear exit at a short or overlong file."""
import sys


class Tokens:
    def __init__(self, path):
        self.path = path
        self.toks = open(path).read().split()
        self.pos = 0

    def take(self, conv):
        """The next token, converted by conv (int or float)."""
        if self.pos >= len(self.toks):
            sys.exit(f"{self.path}: file ends early (token {self.pos + 1})")
        self.pos += 1
        return conv(self.toks[self.pos - 1])

    def rows(self, n, m):
        """n rows of m reals."""
        return [[self.take(float) for _ in range(m)] for _ in range(n)]

    def done(self):
        """Exits if tokens are left over."""
        if self.pos != len(self.toks):
            sys.exit(f"{self.path}: {len(self.toks) - self.pos} unexpected trailing tokens")
