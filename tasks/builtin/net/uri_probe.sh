
if [ -n "$creates" ] && { [ -e "$creates" ] || [ -L "$creates" ]; }; then echo verdict=creates; exit 0; fi
if [ -n "$removes" ] && ! { [ -e "$removes" ] || [ -L "$removes" ]; }; then echo verdict=removes; exit 0; fi
[ -n "$dest" ] && [ -d "$dest" ] && echo isdir=1
[ -n "$dest" ] && [ -f "$dest" ] && echo "mtime=$(stat -c %Y -- "$dest")"
echo verdict=go
