# Prepares the subversion case's host (a fresh tender-e2e/debian-sys,
# for both tools): a repository at file:///srv/svn/repo with trunk
# (r1: a, r2: a changed and b added) and branches/b1 (r3, a copy of
# trunk with c added). tender-svn-commit MSG commits MSG to trunk's a
# (a new revision).
set -e
mkdir -p /srv/svn
svnadmin create /srv/svn/repo
svn -q mkdir -m layout file:///srv/svn/repo/trunk file:///srv/svn/repo/branches
svn -q checkout file:///srv/svn/repo/trunk /srv/svn/work
cd /srv/svn/work
echo one >a
svn -q add a
svn -q commit -m r2
echo two >>a
echo bee >b
svn -q add b
svn -q commit -m r3
svn -q copy -m r4 file:///srv/svn/repo/trunk file:///srv/svn/repo/branches/b1
cat >/usr/local/bin/tender-svn-commit <<'S'
#!/bin/sh
set -e
cd /srv/svn/work
svn -q update
echo "$1" >>a
svn -q commit -m "$1"
S
chmod 755 /usr/local/bin/tender-svn-commit
mkdir -p /srv/s/inplace /srv/s/inplace-check
echo mine >/srv/s/inplace/a
echo extra >/srv/s/inplace/x
echo mine >/srv/s/inplace-check/a
mkdir -p /srv/s/plain
