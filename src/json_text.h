/* A cursor over the text of a valid JSON document (one jansson accepted):
 * skips whitespace, strings and whole values while counting lines (LF,
 * CRLF or a lone CR ends one) and columns (characters, not bytes), so that
 * a value found by a path can be given its file:line:col. Shared by the
 * typed JSON reader (json.c) and the candidate grader (verdict.c). */
#ifndef CHAD_JSON_TEXT_H
#define CHAD_JSON_TEXT_H

typedef struct json_cursor {
  const char *p, *end;
  int line, col;
} json_cursor;

void json_cur_adv(json_cursor *c);      /* one character                  */
void json_cur_ws(json_cursor *c);       /* whitespace                     */
void json_cur_string(json_cursor *c);   /* a string, at its opening quote */
void json_cur_value(json_cursor *c);    /* one value                      */

#endif
