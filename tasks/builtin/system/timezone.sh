# timezone: the host's side of the timezone module. Inputs: $name (the
# zone, when $hasname), $round (probe, or apply: the steps the module
# planned, as _tz_write and _tz_run lines after this text, then _tz_read).
# Prints key=value lines and the files it read as blobs (_t_blob).
_tz_paths() { # the directories get_bin_path searched, as Ansible reports them
	_p=$PATH
	for _s in /sbin /usr/sbin /usr/local/sbin; do
		case ":$_p:" in *":$_s:"*) ;; *) [ -e "$_s" ] && _p=$_p:$_s ;; esac
	done
	printf '%s' "$_p"
}
_tz_file() { # KEY PATH: the file as a blob, or f_KEY=missing / err
	if [ -d "$2" ]; then
		echo "f_$1=err"
	elif [ ! -e "$2" ]; then
		echo "f_$1=missing"
	elif [ ! -r "$2" ]; then
		echo "f_$1=err"
	else
		echo "f_$1=ok"
		_t_blob "$1" "$2"
	fi
}
_tz_fail() { # rc, then the command's output as blobs o and e
	echo fail=rc
	echo "rc=$rc"
	_t_blob o "$_t_d/o"
	_t_blob e "$_t_d/e"
	exit 0
}
_tz_exec() { # run a command, keeping its output apart
	: >"$_t_d/o"
	: >"$_t_d/e"
	"$@" >"$_t_d/o" 2>"$_t_d/e"
	rc=$?
	return $rc
}
_tz_read() { # the state the module compares: status or files
	if [ "$impl" = systemd ]; then
		_tz_exec "$tdc" status || { echo "failcmd=status"; _tz_fail; }
		_t_blob status "$_t_d/o"
		return
	fi
	_tz_file timezone /etc/timezone
	_tz_file rcs /etc/default/rcS
	_tz_file confd /etc/conf.d/hwclock
	_tz_file clock /etc/sysconfig/clock
	_tz_file adjtime /etc/adjtime
	if [ -L /etc/localtime ]; then echo lt_link=1; fi
	if [ -e /etc/localtime ]; then echo lt_exists=1; fi
	if [ -L /etc/localtime ]; then
		readlink /etc/localtime >"$_t_d/lt" 2>/dev/null && _t_blob lt "$_t_d/lt"
	fi
	if [ -n "$hasname" ] && cmp -s /etc/localtime "/usr/share/zoneinfo/$name" 2>/dev/null; then echo lt_same=1; fi
}
_tz_write() { # STEP FILE CONTENT: write a configuration file
	if printf '%s' "$3" 2>/dev/null >"$2"; then echo "done=$1"; else
		echo fail=write
		echo "step=$1"
		exit 0
	fi
}
_tz_run() { # STEP COMMAND...: run a command; stop on failure
	_tz_s=$1
	shift
	_tz_exec "$@" || { echo "step=$_tz_s"; _tz_fail; }
	echo "done=$_tz_s"
}
if [ "$round" = probe ]; then
	os=$(uname -s)
	echo "os=$os"
	[ "$os" = Linux ] || exit 0
	impl='file'
	if tdc=$(_t_bin timedatectl); then
		"$tdc" >/dev/null 2>&1 && impl=systemd
	fi
	echo "impl=$impl"
	echo "tdc=$tdc"
	printf 'paths=%s\n' "$(_tz_paths)"
	if [ -n "$hasname" ]; then
		if [ -f "/usr/share/zoneinfo/$name" ]; then echo zone=1; else
			echo zone=0
			exit 0
		fi
	fi
	if [ "$impl" = file ]; then
		for _b in cp hwclock dpkg-reconfigure ln setup-timezone tzdata-update; do
			printf 'bin_%s=%s\n' "$_b" "$(_t_bin "$_b")"
		done
		[ -r /etc/os-release ] && printf 'dist=%s\n' "$(sed -n 's/^ID=//p' /etc/os-release | tr -d "\"'" | head -n 1)"
	fi
	_tz_read
fi
