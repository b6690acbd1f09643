#!/usr/bin/env python3
# backtrack_gen.py records Python's re.search on the patterns of
# backtrack_test.go's table (patterns RE2 cannot run): for each, the
# whole match and its groups (null: no match, or a group that did not
# take part), written to backtrack.json. Rerun by hand with python3 from
# anywhere after changing the list.
import re, json
cases = [
 (r'^(REF) .* \1$', "REF this is a line for backrefs REF\n"),
 (r'^(REF) .* \1$', "REF foo XREF\n"),
 (r'foo(?=bar)', "foobaz foobar"),
 (r'foo(?!bar)', "foobar foobaz"),
 (r'(?<=a)b', "cb ab"),
 (r'(?<!a)b', "ab cb"),
 (r'(?P<x>a+)-(?P=x)', "aa-a aa-aa"),
 (r'(?i)(ab)\1', "xABab"),
 (r'(?x) a b  # comment', "ab"),
 (r'a{2,3}?(?=a)', "aaaa"),
 (r'(a|ab)(c|bcd)(d*)(?=$)', "abcd"),
 (r'(?>a+)ab', "aaab"),
 (r'a++b', "aaab"),
 (r'a++ab', "aaab"),
 (r'(a)?(?(1)b|c)', "ab"),
 (r'(a)?(?(1)b|c)', "c"),
 (r'\bfoo\b(?=!)', "afoo foo!"),
 (r'(\w+)\s+\1', "hello world world"),
 (r'(?m)^(\d+)$(?=\n)', "a\n12\nb"),
 (r'[^\d\s]+(?=1)', "ab1"),
 (r'\x41\u00e9(?=.)', "A\u00e9z"),
 (r'(a*)*b(?=)', "aab"),
 (r'(?i)[a-c]+(?=D)', "xABCd"),
 (r'(\w+)(?=!)', "h\u00e9llo!"),
 (r'a$(?=\n)', "a\n"),
 (r'a$(?!x)', "a\nb"),
 (r'<.+?>(?=x)', "<a><b>x"),
 (r'(?s)a.b(?=c)', "a\nbc"),
 (r'a.b(?=c)', "a\nbc"),
 (r'(?<=\d{3})x', "12x 123x"),
 (r'(a)|b(?=c)', "bc"),
 (r'(?:(a)|b)+(?=!)', "ab!"),
 (r'\d+(?=\Z)', "12\n34"),
 (r'[\]a-]+(?=x)', "]-ax"),
 (r'(?i)straße(?=!)', "STRASSE! strasse! Straße!"),
 (r'(?-i:a)(?=b)', "ab"),
 (r'(?i:A)B(?=c)', "abc aBc"),
 (r'(\d)(?P<n>\d)(?P=n)\1', "1221 1223"),
 (r'x{,2}y(?=z)', "xxxyz"),
 (r'x{2}(?=y)', "xxxy"),
 (r'a{(?=b)', "a{b"),
]
out = []
for p, t in cases:
    m = re.search(p, t)
    out.append([p, t, None if m is None else [m.group(0)] + list(m.groups())])
import os
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'backtrack.json'), 'w') as f:
    f.write(json.dumps(out, ensure_ascii=False, indent=0) + '\n')
