
_t_attrs "$dest" "$mode" "$owner" "$group"
echo verdict=done; _t_info "$dest"
