#include "chad/chad.h"
int chad_simplify(int t) { return t; }
