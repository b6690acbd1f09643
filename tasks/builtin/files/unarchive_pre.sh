if [ -n "$creates" ] && { [ -e "$creates" ] || [ -L "$creates" ]; }; then echo creates
elif [ ! -d "$dest" ]; then echo nodest; fi