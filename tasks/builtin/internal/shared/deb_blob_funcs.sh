
_t_blob() {
	printf '\n@@blob %s %s\n' "$(wc -c <"$2" | tr -d ' ')" "$1"
	cat -- "$2"
}
