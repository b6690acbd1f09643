
[ -d "$reposdir" ] || { echo noreposdir=1; exit 0; }
case $file in
/*) p=$file.repo ;;
*) case $reposdir in */) p=$reposdir$file.repo ;; *) p=$reposdir/$file.repo ;; esac ;;
esac
echo "dest=$p"
