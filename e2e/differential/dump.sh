#!/bin/sh
# tender differential dump: prints the state of a host, one fact per line,
# sorted, so that two hosts compare line by line. Run as root; reads the
# paths to list (one absolute path per line, # comments) on its input:
#   docker exec -i CONTAINER sh -c "$(cat dump.sh)" dump.sh < cases/NAME/paths
#
#   file PATH TYPE MODE OWNER:GROUP [SIZE | -> TARGET]   every path under each listed one
#   md5 PATH HASH                                         each regular file's content
#   package NAME VERSION STATUS                           every dpkg package
#   rpm NAME VERSION-RELEASE.ARCH                         every rpm package (rh hosts)
#   passwd|group LINE                                     /etc/passwd, /etc/group
#   shadow|gshadow LINE                                   hashes masked (below)
#   rc LINK -> TARGET                                     SysV start/stop links
#   service [ + ] NAME                                    service --status-all
#   openrc runlevel LEVEL NAME                            OpenRC's runlevels (/etc/runlevels)
#   openrc state STATE NAME, openrc crashed NAME          OpenRC's service states (/run/openrc)
#   process USER ARGS                                     running processes
#   crontab USER: LINE, cron.d FILE: LINE                 crontabs
#   sysctl KEY = VALUE                                    keys set in sysctl.conf/sysctl.d
#   modules FILE: LINE                                    /etc/modules, modules-load.d, modprobe.d
#   pip PYTHON: NAME==VERSION                             what pip lists for python3 and, for
#                                                         each listed VENV/pyvenv.cfg, for
#                                                         VENV/bin/python (where pip is there)
#   hostname NAME
#
# Normalized, because they differ between two identical runs:
# - a password hash: the same password hashes differently with each random
#   salt, so a hash prints as "hash" ("!hash" when locked); empty, "*" and
#   "!" stay as they are.
# - backup files (copy/template/lineinfile backup=yes) are named
#   NAME.PID.YYYY-MM-DD@HH:MM:SS~: pid and time print as PID and TIME.
# - crontab's "(/tmp/crontab.XXX installed on DATE)" header line is left out.
# Not dumped: /proc/modules is the kernel's, shared by every container on
# the machine (and the machine itself), so it cannot tell two hosts apart;
# the persistent module configuration is dumped instead. Processes of ssh
# sessions (ansible-playbook's ControlPersist keeps one open) and of this
# script are left out.
export LC_ALL=C
procs=$(ps -eo user=,args=)
{
	pythons=python3
	while IFS= read -r p || [ -n "$p" ]; do
		case $p in '' | '#'*) continue ;; esac
		case $p in */pyvenv.cfg) [ -x "${p%/*}/bin/python" ] && pythons="$pythons ${p%/*}/bin/python" ;; esac
		if [ ! -e "$p" ] && [ ! -L "$p" ]; then
			echo "file $p absent"
			continue
		fi
		find "$p" \( -type l -printf 'file %p link %u:%g -> %l\n' \) \
			-o \( -type f -printf 'file %p file %m %u:%g %s\n' \) \
			-o \( -type d -printf 'file %p dir %m %u:%g\n' \) \
			-o -printf 'file %p %y %m %u:%g\n'
		find "$p" -type f -exec md5sum {} + | sed -E 's/^([0-9a-f]{32})  (.*)$/md5 \2 \1/'
	done
	dpkg-query -W -f='package ${Package} ${Version} ${db:Status-Abbrev}\n'
	if command -v rpm >/dev/null 2>&1; then rpm -qa --qf 'rpm %{NAME} %{VERSION}-%{RELEASE}.%{ARCH}\n'; fi
	sed 's/^/passwd /' /etc/passwd
	sed 's/^/group /' /etc/group
	for f in shadow gshadow; do
		awk -F: -v OFS=: -v kind=$f '{
			h = $2
			if (h ~ /^\$/) h = "hash"
			else if (h ~ /^!+\$/) h = "!hash"
			$2 = h
			print kind " " $0
		}' /etc/$f
	done
	for l in /etc/rc?.d/*; do
		[ -L "$l" ] && echo "rc $l -> $(readlink "$l")"
	done
	service --status-all 2>&1 | sed 's/^ */service /'
	for l in /etc/runlevels/*/*; do
		[ -e "$l" ] || [ -L "$l" ] || continue
		l=${l#/etc/runlevels/}
		echo "openrc runlevel ${l%%/*} ${l#*/}"
	done
	if [ -d /run/openrc ]; then
		for d in started starting stopping inactive wasinactive failed; do
			for l in /run/openrc/$d/*; do
				[ -e "$l" ] || [ -L "$l" ] && echo "openrc state $d ${l##*/}"
			done
		done
		rc-status --crashed 2>/dev/null | sed 's/^/openrc crashed /'
	fi
	echo "$procs" | grep -v -e 'sshd: ' -e 'ps -eo user=,args=' -e 'tender differential dump' | sed 's/^/process /'
	for f in /var/spool/cron/crontabs/*; do
		[ -f "$f" ] && grep -v '^# (.* installed on ' "$f" | sed "s|^|crontab ${f##*/}: |"
	done
	for f in /etc/cron.d/*; do
		[ -f "$f" ] && sed "s|^|cron.d ${f##*/}: |" "$f"
	done
	for k in $(cat /etc/sysctl.conf /etc/sysctl.d/*.conf 2>/dev/null |
		sed -n 's/^[[:space:]]*-\{0,1\}\([A-Za-z0-9_./-]*\)[[:space:]]*=.*/\1/p' | sort -u); do
		echo "sysctl $k = $(sysctl -n "$k" 2>&1)"
	done
	for f in /etc/modules /etc/modules-load.d/* /etc/modprobe.d/*; do
		[ -f "$f" ] && sed "s|^|modules $f: |" "$f"
	done
	for py in $pythons; do
		"$py" -m pip --version >/dev/null 2>&1 &&
			"$py" -m pip --disable-pip-version-check --no-input list --format=freeze 2>/dev/null | sed "s|^|pip $py: |"
	done
	echo "hostname $(hostname)"
} | sed -E 's/\.[0-9]+\.[0-9]{4}-[0-9]{2}-[0-9]{2}@[0-9]{2}:[0-9]{2}:[0-9]{2}~/.PID.TIME~/g' | sort
