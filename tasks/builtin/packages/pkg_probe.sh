for m in dnf yum apt-get apk zypper pacman; do
	if command -v "$m" >/dev/null 2>&1; then [ "$m" = apt-get ] && m=apt; echo "$m"; exit 0; fi
done
echo unknown