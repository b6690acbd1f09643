# Removes the repository file $f, which has no section left; prints
# removed=1 once it is gone.
rm -f -- "$f" && echo removed=1
