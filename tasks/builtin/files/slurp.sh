
if [ -d "$p" ]; then echo "msg=source is a directory and must be a file: $p"; exit 0; fi
if ! _t_exists "$p" || { [ -L "$p" ] && [ ! -e "$p" ]; }; then echo "msg=file not found: $p"; exit 0; fi
if [ ! -r "$p" ]; then echo "msg=file is not readable: $p"; exit 0; fi
echo ok=1
echo --content--
cat -- "$p" || exit 1
