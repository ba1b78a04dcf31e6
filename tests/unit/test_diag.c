/* diag_locate (include/chad/diag.h): the line and column of a byte offset,
 * by which every error message is placed. Lines end at LF, CRLF or a lone
 * CR (CRLF is one end, not two); columns count characters, not the bytes
 * of a UTF-8 sequence; an offset past the text stops at its end. Expected
 * positions by hand. */
#include <stdio.h>
#include <string.h>

#include "chad/diag.h"
#include "check.h"

/* the position of byte off in the first len bytes of text */
static void at(const char *text, size_t len, size_t off, int want_line, int want_col) {
  int line = -1, col = -1;
  diag_locate(text, len, off, &line, &col);
  CHECKM(line == want_line && col == want_col, "offset %zu of \"%s\" (length %zu): %d:%d, want %d:%d",
         off, text, len, line, col, want_line, want_col);
}

int main(void) {
  printf("diag_locate: line ends, columns, offsets past the end\n");
  at("ab\ncd", 5, 0, 1, 1);
  at("ab\ncd", 5, 4, 2, 2);
  at("a\r\nb", 4, 3, 2, 1);      /* CRLF: one line end */
  at("\r\nx", 3, 2, 2, 1);       /* CRLF at the very start: still one */
  at("\r\n\r\nx", 5, 4, 3, 1);
  at("a\rb", 3, 2, 2, 1);        /* a lone CR ends a line */
  at("\rx", 2, 1, 2, 1);         /* a lone CR at the start */
  at("a\r\n", 2, 2, 2, 1);       /* a CR last in the text (a LF beyond it not read as its pair) */
  at("\xc3\xa9x", 3, 2, 1, 2);   /* é: two bytes, one column */
  at("ab", 2, 10, 1, 3);         /* past the end: the end */
  at("", 0, 0, 1, 1);
  printf("test_diag: %d checks, %d failures\n", checks, failures);
  return failures != 0;
}
