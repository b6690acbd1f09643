#!/usr/bin/env python3
# gen.py records what Python 3's re module answers for the table below
# into cases.json, which pyre_test.go's TestLikePython checks pyre
# against. Rerun it by hand with python3 (3.11, as ansible-core 2.14's
# controller on Debian bookworm) from anywhere after changing the table.
#
# A case is [op, pattern, flags, text] or [op, pattern, flags, text, repl]:
#   op:    search | match | fullmatch (the match and its groups, null when
#          none), findall, finditer (each match's groups), sub (the result
#          and the count of re.subn); an error is recorded as its message
#   flags: letters of re's flags (i m s x a); "b" makes the pattern, text
#          and replacement bytes (to_bytes, as lineinfile does); bytes
#          results are written as latin-1 text, one character a byte
import json
import os
import re
import unicodedata

SEARCH = [
    # backreferences, named groups
    (r'^(REF) .* \1$', "REF this is a line for backrefs REF\n"),
    (r'^(REF) .* \1$', "REF foo XREF\n"),
    (r'(?P<x>a+)-(?P=x)', "aa-a aa-aa"),
    (r'(?i)(ab)\1', "xABab"),
    (r'(\w+)\s+\1', "hello world world"),
    (r'(\d)(?P<n>\d)(?P=n)\1', "1221 1223"),
    (r'(a)|b', "b"),
    (r'(?:(a)|b)+(?=!)', "ab!"),
    (r'(a)(b)?\2', "ab"),
    (r'(a)(b)?(?(2)c|d)', "ad"),
    (r'(?P<q>["\'])(.*?)(?P=q)', "say 'hi' \"there\""),
    (r'(?P<first>\w+) (?P<last>\w+)', "Ada Lovelace"),
    (r'(a)\10', "aa0"),
    (r'(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10', "abcdefghijj"),
    # lookahead, lookbehind
    (r'foo(?=bar)', "foobaz foobar"),
    (r'foo(?!bar)', "foobar foobaz"),
    (r'(?<=a)b', "cb ab"),
    (r'(?<!a)b', "ab cb"),
    (r'(?<=\d{3})x', "12x 123x"),
    (r'(?<=(a))b', "ab"),
    (r'(?<=ab|cd)x', "cdx"),
    (r'(?<!^)x', "xx"),
    (r'\w+(?=\s*=)', "key = value"),
    (r'^(?!.*secret).*$', "a secret\nplain"),
    (r'(?m)^(?!#).+$', "#c\nline"),
    (r'(?<=\bport )\d+', "export 1 port 22"),
    # atomic, possessive, conditional, lazy, greedy
    (r'(?>a+)ab', "aaab"),
    (r'a++b', "aaab"),
    (r'a++ab', "aaab"),
    (r'a*+', "aaa"),
    (r'(?:ab)?+c', "abc"),
    (r'a{1,2}+a', "aaa"),
    (r'(a)?(?(1)b|c)', "ab"),
    (r'(a)?(?(1)b|c)', "c"),
    (r'(?P<o><)?\w+(?(o)>)', "<tag> word"),
    (r'a{2,3}?(?=a)', "aaaa"),
    (r'<.+?>', "<a><b>"),
    (r'<.+>', "<a><b>"),
    (r'(a|ab)(c|bcd)(d*)', "abcd"),
    (r'(a*)*b', "aab"),
    (r'(a*)+b', "aab"),
    (r'(a|b)*c', "abac"),
    (r'(?:(a)|(b))*', "ab"),
    (r'(a)*', "aaa"),
    (r'(?:x(a)?)*', "xax"),
    # anchors
    (r'a$', "a\n"),
    (r'a$', "a\n\n"),
    (r'a\Z', "a\n"),
    (r'\Aa', "ba\na"),
    (r'(?m)^a', "b\na"),
    (r'(?m)a$', "a\nb"),
    (r'^$', ""),
    (r'^$', "\n"),
    (r'$', "a\n"),
    (r'(?m)$', "a\n"),
    (r'\d+(?=\Z)', "12\n34"),
    (r'\bfoo\b', "afoo foo!"),
    (r'\Bfoo', "afoo foo"),
    (r'\B', ""),
    (r'\b', ""),
    (r'\bé', "café é"),
    (r'\b\w', "\u00e9t\u00e9"),
    # dot, flags
    (r'a.b', "a\nb"),
    (r'(?s)a.b', "a\nb"),
    (r'a.c', "a\u00e9c"),
    (r'(?i)straße', "STRASSE strasse Straße"),
    (r'(?i)k', "\u212a"),
    (r'(?i)s', "\u017f"),
    (r'(?i)[a-z]+', "\u00c9T\u00c9 ABC"),
    (r'(?i)é', "É"),
    (r'(?ai)é', "É"),
    (r'(?-i:a)b', "Ab ab"),
    (r'(?i:A)B', "aB ab"),
    (r'(?i)a(?-i:b)', "AB Ab"),
    (r'(?s:.)x.', "\nx\n\nxy"),
    (r'(?m:^b)', "a\nb"),
    (r'(?x) a b  # comment', "ab"),
    (r'(?x) a \  b [ ] c', "a b c"),
    (r'(?x) a{1, 2}', "a{1,2}"),
    (r'(?x: a b ) c', "ab c"),
    (r'(?x)a # comment\n b', "ab"),
    (r'(?a)\w+', "h\u00e9llo"),
    (r'(?a:\w)\w', "\u00e9\u00e9a\u00e9"),
    (r'(?u)\w+', "h\u00e9llo"),
    (r'(?im)^B$', "a\nb\n"),
    (r'(?i)(?m)^B', "a\nb"),
    # classes
    (r'\w+', "h\u00e9llo_w\u00f6rld 42"),
    (r'\w+', "x\u0301y"),
    (r'\w+', "\u00b2\u00bd\u2167"),
    (r'\w+', "a\u203fb"),
    (r'\d+', "\u0661\u0662 12"),
    (r'\s+', "a\x1c\x1d\x1e\x1fb"),
    (r'\s+', "a\u00a0\u2003\u3000b"),
    (r'\s+', "a\u200bb"),
    (r'[\w-]+', "a-b c"),
    (r'[^\W\d]+', "42abc_9"),
    (r'[^\W\d_]+', "_abc"),
    (r'[\W\d]+', "ab12!?c"),
    (r'[\S]+', " ab "),
    (r'[^\S\n]+', "a \t\nb"),
    (r'[\D]+', "12ab3"),
    (r'[]a]+', "]a]b"),
    (r'[^]a]+', "]xa"),
    (r'[a-]+', "a-b"),
    (r'[-a]+', "-a-b"),
    (r'[\]a-]+(?=x)', "]-ax"),
    (r'[a\-z]+', "a-zb"),
    (r'[\x41-\x43]+', "ABCD"),
    (r'[\u00e0-\u00ff]+', "caf\u00e9s"),
    (r'[\U0001F600-\U0001F64F]+', "a\U0001F600\U0001F601b"),
    (r'[.^$*+?{}()|]+', "x.^$*+?{}()|x"),
    (r'[[]+', "[[a"),
    (r'[a-c&&b]+', "a&b"),
    (r'[\b]', "a\bb"),
    (r'[\0101]', "A"),
    (r'[\n\t]+', "a\n\tb"),
    (r'[^a]', "a\n"),
    (r'(?i)[^a]', "Ab"),
    (r'(?i)[A-Z\d]+', "ab12"),
    # escapes
    (r'\x41\u00e9', "A\u00e9z"),
    (r'\U0001F600', "x\U0001F600"),
    (r'\N{EM DASH}', "a\u2014b"),
    (r'\N{em dash}', "a\u2014b"),
    (r'\0', "a\0b"),
    (r'\101', "A"),
    (r'\0101', "\x081"),
    (r'\.\*\+', "a.*+"),
    (r'\-\#\ \~', "-# ~"),
    (r'\é', "\u00e9"),
    (r'\a\f\v\t', "\a\f\v\t"),
    (r'a\\b', "a\\b"),
    # repeats
    (r'x{,2}y', "xxxy"),
    (r'x{2}', "xxxy"),
    (r'x{2,}', "xxxy"),
    (r'a{', "a{b"),
    (r'a{1', "a{1"),
    (r'a{,}', "aaa"),
    (r'a{}', "a{}"),
    (r'a{x}', "a{x}"),
    (r'a{1,2', "a{1,2"),
    (r'{1}', "{1}"),
    (r'(?:)*', "a"),
    (r'(?=a)*', "a"),
    (r'a{0}', "a"),
    (r'(a){0}b', "ab"),
    # what Ansible playbooks write
    (r'^(\s*)#?\s*PermitRootLogin\s+\S+', "  #PermitRootLogin yes\n"),
    (r'(?P<major>\d+)\.(?P<minor>\d+)(?:\.(?P<patch>\d+))?', "v4.18"),
    (r'^(?!#)(\S+)\s+(\S+)', "# c\nname value"),
    (r'(?m)^(?P<key>[^=\s]+)\s*=\s*(?P<value>.*)$', "#x\nkey = value with = sign\n"),
    (r'version:\s*"?(?P<v>[\d.]+)"?', 'version: "1.2.3"'),
    (r'(?<=-)\d+(?=\.el)', "4.18.0-513.el8.x86_64"),
    (r'^\s*$', "   \n"),
    (r'(?i)^listen\s+(\d+)\s*;', "LISTEN 8080;"),
]

MATCH = [
    (r'a', "ba"), (r'b', "ba"), (r'(a|ab)(c|bcd)', "abcd"), (r'\d+', "12ab"),
    (r'(?=b)', "b"), (r'(?<=a)b', "ab"), (r'$', ""), (r'x*', "abc"),
]

FULLMATCH = [
    (r'a|ab', "ab"), (r'a*?', "aaa"), (r'(a)(b)?', "a"), (r'\d+', "12\n"), (r'\d+$', "12\n"),
    (r'(?:a|ab)(?:c|bcd)', "abcd"), (r'a', ""), (r'', ""), (r'.*', "a\nb"), (r'(?s).*', "a\nb"),
]

FINDALL = [
    (r'x*', "abxd"), (r'(a|)', "baac"), (r'|a', "a"), (r'\b|\w+', "ab cd"), (r'x*?', "xx"),
    (r'(\w)(\w)?', "abc"), (r'(?m)^', "a\nb\n"), (r'(?m)$', "a\nb\n"), (r'$', "a\n"), (r'\s*$', "a  "),
    (r'\d+', "a1b22c333"), (r'(\d)\.(\d)', "4.18.0-513.el8"), (r'(?:a(b)?)+?', "abaab"),
    (r'(?P<k>\w+)=(?P<v>\w*)', "a=1 b= c=3"), (r'\B', "ab"), (r'\b', "ab cd"), (r'', "ab"),
    (r'a*', "baaa"), (r'(?=a)|a', "aa"), (r'a|(?=a)', "aa"), (r'(?<=a)|b', "abab"),
    (r'.', "h\u00e9\U0001F600"), (r'[^\d\s]+', "ab 12 cd"), (r'(a)(b)?', "aab"),
    (r'(?i)[a-c]', "ABC abc"), (r'\w+@\w+\.com', "x a@b.com, c@d.com"),
]

FINDITER = [
    (r'x*', "abxd"), (r'|a', "aab"), (r'(a)|(b)', "ab"), (r'(?:(a)|b)*', "abab"), (r'\b', "a b"),
]

SUB = [
    (r'(a)(b)?', r'[\1|\2|\g<0>|\g<1>0|\101|\0101|\n|\.]', "ab"),
    (r'(a)(c)?', r'[\2]', "a"),
    (r'(?P<x>\w+)=(?P<y>\w+)', r'\g<y>=\g<x>\\', "k=v"),
    (r'(?m)^(\w+)$', r'<\1>', "ab\ncd\n"),
    (r'x\Z', r'y', "axx"),
    (r'a(?#comment)b', r'c', "ab"),
    (r'(?i)A', r'b', "a"),
    (r'(?m)\s*$', r'X', "a  \nb"),
    (r'x*', r'-', "abxd"),
    (r'(?m)\s*$', r'', "a  \nb  \n"),
    (r'(a|)', r'<\1>', "baac"),
    (r'|a', r'-', "a"),
    (r'x*?', r'-', "xx"),
    (r'\b', r'|', "ab cd"),
    (r'(?<=a)', r'-', "aaa"),
    (r'(?=a)', r'-', "aaa"),
    (r'(\w+) (\w+)', r'\2 \1', "hello world"),
    (r'(?P<w>\w)', r'\g<w>\g<w>', "ab"),
    (r'(a)|b', r'[\1]', "ab"),
    (r'^(\s*)#\s*(PermitRootLogin)\s.*$', r'\1\2 no', "  # PermitRootLogin yes"),
    (r'(?<=\d)(?=(\d{3})+$)', r',', "1234567"),
    (r'\.el\d.*$', r'', "4.18.0-513.el8.x86_64"),
    (r'(\d+)', r'<\g<1>0>', "a12b"),
    (r'\s+', r' ', "a \t\n b"),
    (r'(?s)<!--.*?-->', r'', "a<!--x\ny-->b<!--z-->c"),
    (r'é', r'e', "caf\u00e9 \u00e9t\u00e9"),
    (r'(\w)(\w)', r'\2\1', "h\u00e9llo"),
    (r'a', r'\g<0>\g<0>', "banana"),
    (r'(b)', r'\\1', "abc"),
]

BYTES = [
    ("search", r'^(\w+)$', "h\u00e9llo\n"),
    ("search", r'\w+', "h\u00e9llo"),
    ("search", r'^.{5}$', "h\u00e9llo"),
    ("search", r'^.{4}$', "\u00e9t\u00e9"),
    ("search", r'(?i)\u00e9', "\u00c9"),
    ("search", r'(?i)é', "É"),
    ("search", r'é', "café"),
    ("search", r'[é]+', "café"),
    ("search", r'[\x80-\xff]+', "café"),
    ("search", r'[^\x00-\x7f]+', "caf\u00e9!"),
    ("search", r'\s+', "a\x1c\x85b c"),
    ("search", r'\bé', "café é"),
    ("search", r'(?i)k', "\u212a"),
    ("search", r'(?L)\w+', "h\u00e9llo"),
    ("search", r'^(.*)\1$', "\u00e9\u00e9\n"),
    ("search", r'\xe9', "\u00e9"),
    ("search", r'\xc3\xa9', "\u00e9"),
    ("search", r'^Listen (\d+)$', "Listen 80\n"),
    ("search", r'(?m)^port=(\d+)$', "a=1\nport=22\nb=2"),
    ("findall", r'.', "\u00e9a"),
    ("sub", r'(\w+)', "café", r'[\1]'),
]

ERRORS = [
    r'a(', r'a)', r'(?P<1a>x)', r'(?P<a>x)(?P<a>y)', r'(?P=zz)', r'(a\1)', r'(a)\2', r'\1',
    r'*a', r'a**', r'a{2}{3}', r'^*', r'\b+', r'a{3,2}', r'a{4294967295}', r'[a', r'[z-a]',
    r'[\d-z]', r'[a-\w]', r'\q', r'\x4', r'\u12', r'\U00110000', r'\N{NO SUCH NAME}', r'\N',
    r'\777', r'[\777]', r'[\8]', r'\Q', r'\z', r'\G', r'\k<a>', r'\p{L}', r'(?<=a+)b',
    r'(?<=a|bc)d', r'(?<!a*)b', r'(?<=(a)\1)', r'(?#unterminated', r'(?', r'(?P', r'(?Px)',
    r'(?<x)', r'(?z)', r'(?i', r'(?-)', r'(?-a:x)', r'(?i-i:x)', r'a(?i)', r'(?L)a', r'(?au)x',
    r'(?(1)a|b)', r'(?(1)a|b)(c)', r'(?(a)x)', r'(?(0)x)', r'(a)(?(1)x|y|z)', r'(?(1a)x)',
    r'(?P<a>)(?(a', r'\\', 'a\\', r'(?x)[ ', r'a{1,2}{3}', r'x++?', r'(?>)?+', r'(?i:(?L)a)',
    r'(?-i)', r'(?u:x)',
]

TEMPLATE_ERRORS = [(r'(a)(?P<n>b)', t, "ab") for t in
                   [r'\10', r'\g<m>', r'\q', 'x\\', r'\g<1', r'\g<>', r'\g<-1>', r'\g<1a>', r'\x41']]


def result(m):
    if m is None:
        return None
    return [m.group(0)] + list(m.groups())


def run(op, pattern, fl, text, repl=None):
    flags = 0
    for c in fl.replace("b", ""):
        flags |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X, "a": re.A}[c]
    if "b" in fl:
        pattern, text = pattern.encode(), text.encode()
        repl = repl.encode() if repl is not None else None
    try:
        r = re.compile(pattern, flags)
        if op in ("search", "match", "fullmatch"):
            return result(getattr(r, op)(text))
        if op == "findall":
            return r.findall(text)
        if op == "finditer":
            return [result(m) for m in r.finditer(text)]
        if op == "sub":
            return list(r.subn(repl, text))
    except (re.error, OverflowError, IndexError) as e:
        return {"error": str(e)}


def plain(v):
    if isinstance(v, bytes):
        return v.decode("latin-1")
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return v


cases = []
for p, t in SEARCH:
    cases.append(["search", p, "", t])
for op, table in (("match", MATCH), ("fullmatch", FULLMATCH), ("findall", FINDALL), ("finditer", FINDITER)):
    for p, t in table:
        cases.append([op, p, "", t])
for p, r, t in SUB:
    cases.append(["sub", p, "", t, r])
for op, p, t, *r in BYTES:
    cases.append([op, p, "b", t] + r)
for fl, p, t in (("i", r'A', "a"), ("m", r'^b$', "a\nb\nc"), ("s", r'a.b', "a\nb"), ("x", r'a b', "ab"),
                 ("a", r'\w+', "h\u00e9"), ("im", r'^B', "a\nb"), ("ib", r'\xc9', "\u00e9")):
    cases.append(["search", p, fl, t])
for p in ERRORS:
    cases.append(["search", p, "", ""])
for p, tpl, t in TEMPLATE_ERRORS:
    cases.append(["sub", p, "", t, tpl])

out = []
for c in cases:
    out.append(c + [plain(run(*c))])
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "cases.json"), "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in out) + "\n]\n")
print(len(out), "cases")

# Python's classes on text, as ranges of code points, and the code points
# its Unicode database (14.0 in Python 3.11) leaves unassigned, where Go's
# newer tables may differ: classes.json, for TestClassesLikePython.
def ranges(ok):
    out, start = [], None
    for c in range(0x110000):
        if ok(c) and start is None:
            start = c
        elif not ok(c) and start is not None:
            out.append([start, c - 1])
            start = None
    if start is not None:
        out.append([start, 0x10FFFF])
    return out


def member(p):
    r = re.compile(p)
    return lambda c: not 0xD800 <= c <= 0xDFFF and r.match(chr(c)) is not None


classes = {p: ranges(member(p)) for p in (r'\w', r'\s', r'\d', r'(?i)[a-z]', r'(?i)\w')}
classes["unassigned"] = ranges(lambda c: unicodedata.category(chr(c)) == "Cn")
classes["unicode"] = unicodedata.unidata_version
with open(os.path.join(here, "classes.json"), "w") as f:
    json.dump(classes, f, separators=(",", ":"))
    f.write("\n")
