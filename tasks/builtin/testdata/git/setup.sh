# Prepares the git case's host (a fresh tender-e2e/debian-sys, for both
# tools): repositories under /srv/git with fixed authors and dates, so
# that every commit has the same id on every host.
#
#   sub.git   a submodule's repository (one commit)
#   main.git  master: c1 (tag v1), c2 (annotated tag v2), c3 (adds sub.git
#             as the submodule lib); dev: c2 + d1; refs/meta/config: m1
#   mirror.git  a copy of main.git (a second URL for the same history)
#
# They are reachable as file:// and plain paths, over ssh on port 2222
# (a second sshd taking /root/.ssh/gitkey) and over dumb HTTP on 8765
# (any user and password will do). tender-push MSG commits to a work
# tree of main.git's master (or, with SUB=1, of sub.git's) and pushes.
set -e
git config --system protocol.file.allow always
git config --system init.defaultBranch master
git config --system advice.detachedHead false
cat >/usr/local/bin/tender-push <<'S'
#!/bin/sh
set -e
export GIT_AUTHOR_NAME=tender GIT_AUTHOR_EMAIL=tender@example.com
export GIT_COMMITTER_NAME=tender GIT_COMMITTER_EMAIL=tender@example.com
export GIT_AUTHOR_DATE='2024-01-02T03:04:05Z' GIT_COMMITTER_DATE='2024-01-02T03:04:05Z'
if [ -n "$SUB" ]; then cd /srv/git/sub-work; else cd /srv/git/work; fi
echo "$1" >>"${FILE:-f}"
git add -A
git commit -q -m "$1"
git push -q origin HEAD
for r in /srv/git/*.git; do git -C "$r" update-server-info; done
S
chmod 755 /usr/local/bin/tender-push
export GIT_AUTHOR_NAME=tender GIT_AUTHOR_EMAIL=tender@example.com
export GIT_COMMITTER_NAME=tender GIT_COMMITTER_EMAIL=tender@example.com
export GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
mkdir -p /srv/git
cd /srv/git
git init -q --bare sub.git
git clone -q sub.git sub-work 2>/dev/null
(cd sub-work && echo s1 >s && git add s && git commit -q -m s1 && git push -q origin master)
git init -q --bare main.git
git clone -q main.git work 2>/dev/null
cd work
printf 'one\n' >f && git add f && git commit -q -m c1 && git tag v1
printf 'two\n' >>f && git commit -q -am c2 && git tag -a v2 -m 'version 2'
git checkout -q -b dev && printf 'dev\n' >d && git add d && git commit -q -m d1
git checkout -q master
git submodule -q add file:///srv/git/sub.git lib && git commit -q -m c3
m=$(printf 'meta\n' | git hash-object -w --stdin)
m=$(printf '100644 blob %s\tm\n' "$m" | git mktree)
m=$(git commit-tree -m m1 "$m")
git push -q origin master dev v1 v2 "$m:refs/meta/config"
cd ..
git clone -q --mirror main.git mirror.git
for r in /srv/git/*.git; do git -C "$r" update-server-info; done
# ssh on 2222 with a key of root's own
mkdir -p /root/.ssh /srv/c /srv/a
ssh-keygen -q -t ed25519 -N '' -f /root/.ssh/gitkey
cp /root/.ssh/gitkey.pub /etc/ssh/git_keys
/usr/sbin/sshd -p 2222 -o AuthorizedKeysFile=/etc/ssh/git_keys -o PidFile=/run/sshd-git.pid
# dumb HTTP on 8765
cd /srv/git && nohup python3 -m http.server -b 127.0.0.1 8765 </dev/null >/var/log/git-http.log 2>&1 &
i=0
until nc -z 127.0.0.1 8765 && nc -z 127.0.0.1 2222; do
	i=$((i + 1)); [ $i -lt 100 ] || { echo "servers did not start" >&2; exit 1; }
	sleep 0.1
done
