/* The JSON text cursor (json_text.h). */
#include "json_text.h"

#include <string.h>

void json_cur_adv(json_cursor *c) {
  if (c->p >= c->end) return;
  unsigned char ch = (unsigned char)*c->p++;
  if (ch == '\n' || (ch == '\r' && (c->p >= c->end || *c->p != '\n'))) { c->line++; c->col = 1; }
  else if (ch == '\r') { /* the CR of a CRLF: the LF ends the line */ }
  else if ((ch & 0xC0) != 0x80) c->col++;   /* count characters, not bytes */
}

void json_cur_ws(json_cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    json_cur_adv(c);
}

void json_cur_string(json_cursor *c) {
  json_cur_adv(c);
  while (c->p < c->end && *c->p != '"') {
    if (*c->p == '\\') json_cur_adv(c);
    json_cur_adv(c);
  }
  json_cur_adv(c);
}

void json_cur_value(json_cursor *c) {
  if (c->p >= c->end) return;
  if (*c->p == '"') { json_cur_string(c); return; }
  if (*c->p == '[' || *c->p == '{') {
    long depth = 0;
    while (c->p < c->end) {
      char ch = *c->p;
      if (ch == '"') { json_cur_string(c); continue; }
      if (ch == '[' || ch == '{') depth++;
      else if (ch == ']' || ch == '}') depth--;
      json_cur_adv(c);
      if (depth == 0) return;
    }
    return;
  }
  while (c->p < c->end && !strchr(",]} \t\r\n", *c->p)) json_cur_adv(c);
}
