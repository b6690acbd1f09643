# A repo file with comments, DEFAULT options, a multi-line value, ':'
# delimiters and upper-case option names, as hand-written ones have.
set -e
cat >/etc/yum.repos.d/hand.repo <<'R'
# written by hand
[DEFAULT]
keepcache = 0

[hand-b]
name: Hand B
BaseURL = http://b.example/one
    http://b.example/two
; disabled for now
enabled=0

[hand-a]
name = Hand A
baseurl = http://a.example/
R
