# Lists the fragments directory $src (every entry, hidden ones too, one a
# line, in the C locale's order); nothing when it cannot be entered.
cd "$src" 2>/dev/null && LC_ALL=C ls -A
