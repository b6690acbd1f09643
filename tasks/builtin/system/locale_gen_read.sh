# Reads what locale_gen decides on: mode= (ubuntu when
# /var/lib/locales/supported.d exists, else debian when /etc/locale.gen
# does, else none), noavail= (the list of available locales is missing),
# nolocale=1 (no locale command), local= (ubuntu: missing, dir or ok for
# supported.d/local), then the sections --avail-- (the available list,
# plus a newline), --locales-- (locale -a) and, in ubuntu mode, --local--
# (supported.d/local, plus a newline).
echo ok=1
if [ -d /var/lib/locales/supported.d/ ]; then
	echo mode=ubuntu
	_a=/usr/share/i18n/SUPPORTED
elif [ -e /etc/locale.gen ]; then
	echo mode=debian
	_a=/etc/locale.gen
else
	echo mode=none
	exit 0
fi
[ -e "$_a" ] || { echo "noavail=$_a"; exit 0; }
command -v locale >/dev/null 2>&1 || echo nolocale=1
_l=/var/lib/locales/supported.d/local
if [ -d "$_l" ]; then echo local=dir; elif [ -e "$_l" ]; then echo local=ok; else echo local=missing; fi
echo --avail--
cat -- "$_a"
echo
echo --locales--
locale -a 2>/dev/null
if [ -f "$_l" ]; then
	echo --local--
	cat -- "$_l"
	echo
fi
