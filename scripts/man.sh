#!/usr/bin/env bash
# Writes chad(1), a man page made of `chad --help` (the reference of the
# command line) and pointers to the documentation, to stdout.
#   scripts/man.sh ./chad VERSION
set -euo pipefail
chad=$1; version=$2
cat <<HEAD
.TH CHAD 1 "" "CHAD-C $version" "User Commands"
.SH NAME
chad \\- type check, evaluate and differentiate CHAD-C programs (automatic differentiation by CHAD)
.SH SYNOPSIS
.B chad
.I COMMAND FILE
[\\fIOPTIONS\\fR]
.SH DESCRIPTION
The text of
.BR "chad --help" :
.PP
.nf
HEAD
# roff: a backslash is written \e; a line starting with . or ' is protected by \&
"$chad" --help | sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
cat <<TAIL
.fi
.SH SEE ALSO
README.md in the documentation folder (share/doc/chad): the language, the
JSON conventions, certified derivatives, the C library (chad.h, pkg-config
chad) and the Python package.
TAIL
