# Prepares the make case's host (a fresh tender-e2e/debian-sys): a
# project in /srv/mk with a Makefile (targets all, out.txt, in.txt,
# param, fail, loud, noisy) and a second makefile other.mk, and an
# empty directory /srv/empty.
set -e
mkdir -p /srv/mk /srv/empty
cd /srv/mk
printf 'all: out.txt\n\nout.txt: in.txt\n\tcp in.txt out.txt\n\techo built out.txt\n\nin.txt:\n\techo hello >in.txt\n\nparam:\n\techo "X=$(X) Y=$(Y) Z=$(Z) H=$(H)" >param.txt\n\nfail:\n\techo about to fail\n\techo oops >&2\n\tfalse\n\nloud:\n\techo to stderr >&2\n\ttouch loud\n\nnoisy: ;@echo noisy\n\n.PHONY: param fail noisy\n' >Makefile
printf 'other: other.txt\n\nother.txt:\n\techo other >other.txt\n' >other.mk
printf 'sp ace:\n\techo spaced\n' >space.mk
