#!/usr/bin/python3
"""Records what Python's re.compile says of each pattern: its error
message, or null when it compiles. internal/pyre's TestSyntaxErrors checks
its own checker against these answers. Run by hand after changing the
list:

    /usr/bin/python3 gen-syntax.py > syntax.json

The patterns are the ones listed below and random strings built from the
characters that matter to the parser (seeded, so the file is stable).
"""
import json
import random
import re
import sys
import warnings

FIXED = [
    "*", "a**", "a*??", "^*", "(a", "a)", "[a", "[z-a]", "\\q", "a{3,2}",
    "(?<x>a)", "(?Q)", "a|*", "(*)", "\\", "[\\q]", "x{2}{3}", "a++", "a{,2}*",
    "(?i", "(?P<1>a)", "\\x1", "(?#abc", "a{1", "[]", "[^]", "\\8", "(a)\\2",
    "\\b*", "$+", "(?:)*", "a{}", "a{,}", "a{,}?", "a{1,2}+", "(?P<n>a)(?P=n)",
    "(?P<n>a", "(?P<>a)", "(?P<n", "(?P=n", "(?Pn)", "(?P", "(?", "(?<", "(?<=a)b",
    "(?<!a)b", "(?=a)*", "(?>a)", "(?(1)a|b)", "(a)(?(1)a|b)", "(?i)a", "a(?i)",
    "(?i:a)", "(?-i:a)", "(?-:a)", "(?i-q:a)", "(?q)", "(?iq)", "(?i-", "(?aiLmsux)",
    "\\d-z", "[\\d-z]", "[a-\\d]", "[a-]", "[-a]", "[a-\\x41]", "[\\x41-a]",
    "[\\b]", "[\\A]", "[\\8]", "[\\1]", "\\0", "\\01", "\\012", "\\400", "\\777",
    "\\10", "(a)\\10", "\\u00e9", "\\u00e", "\\U0001F600", "\\U0011FFFF", "\\N{DASH}",
    "\\N", "\\N{x", "\\é", "é*", "[é-a]", "(?P<é>a)", "(?P<a-b>a)", "\\Z*", "\\A+",
    "a|", "|a", "()", "(|)", "a{2}?", "a{2}??", "[", "[\\", "[a-", "[a-]]", "[]a]",
    "[^]a]", "(?#)", "(?#)*", "a(?#)*", "(?i)*", "(?:a|b)*c", "a{1,x}", "a{x}",
    "(a)(?P=1)", "(?P<a>b)(?P<a>c)", "((a)\\2)", "(a\\1)", "\\g<1>", "[\\w-z]",
    "a{99999999999999999}",
]

CHARS = "a()[]{}*+?|\\^$-,?:P<>=!#123xiu_"


def answer(p):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            re.compile(p)
            return None
        except re.error as e:
            return str(e)
        except (OverflowError, ValueError, RecursionError) as e:
            return "!" + type(e).__name__


def main():
    rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    pats = list(FIXED)
    seen = set(pats)
    while len(pats) < len(FIXED) + 3000:
        p = "".join(rnd.choice(CHARS) for _ in range(rnd.randint(1, 8)))
        if p not in seen:
            seen.add(p)
            pats.append(p)
    json.dump([{"p": p, "err": answer(p)} for p in pats], sys.stdout, indent=0, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
