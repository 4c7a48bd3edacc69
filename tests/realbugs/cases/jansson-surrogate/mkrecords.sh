# sh mkrecords.sh BYTES : records.json, 300 records; record 200's name
# holds the three bytes given as printf octal escapes
LC_ALL=C awk -v b="$1" 'BEGIN {
    printf "[\n"
    for (i = 0; i < 300; i++) {
        name = sprintf("user %03d", i)
        if (i == 200) name = "caf" "@@@"
        printf "  {\"name\": \"%s\", \"score\": %d}%s\n", name, (i * 37) % 101, (i < 299 ? "," : "")
    }
    printf "]\n"
}' | { IFS= ; while read -r l; do case $l in *@@@*) printf '%s' "${l%%@@@*}"; printf "$1"; printf '%s\n' "${l#*@@@}" ;; *) printf '%s\n' "$l" ;; esac; done; } >records.json
