#!/usr/bin/env bash
# Writes the King James Bible (public domain) as plain text, from Debian's bible-kjv-text package
# (the text) and bible-kjv (the `bible` program that reads its compressed format):
#
#   bash models/gpt2/data/kjv.sh OUT.txt
#
# Installs both packages with apt-get when `bible` is missing (root, or sudo). The output has one
# paragraph per chapter (its verses joined, verse numbers dropped), a blank line between chapters
# and a form feed line between books (66 books, 1189 chapters, about 4.3 MB), which is what
# `gpt2 prepare` splits documents on.
set -euo pipefail
out=${1:?usage: kjv.sh OUT.txt}
if ! command -v bible > /dev/null; then
  sudo=""
  [[ $(id -u) == 0 ]] || sudo=sudo
  $sudo apt-get install -y -qq bible-kjv bible-kjv-text > /dev/null
fi
# Lines look like "Ge1:1 In the beginning God created the heaven and the earth."
bible -f "Gen1:1-Rev22:21" | awk '
  match($0, /^[1-3]?[A-Za-z]+[0-9]+:[0-9]+ /) {
    ref = substr($0, 1, RLENGTH - 1); text = substr($0, RLENGTH + 1)
    book = ref; sub(/[0-9]+:[0-9]+$/, "", book)
    chap = ref; sub(/:[0-9]+$/, "", chap)
    if (chap != last) {
      if (last != "") printf "\n\n"
      if (book != lastbook && lastbook != "") printf "\f\n"
      last = chap; lastbook = book; sep = ""
    }
    printf "%s%s", sep, text; sep = " "
    next
  }
  { printf " %s", $0 }   # a verse continued on the next line
  END { printf "\n" }' > "$out"
echo "wrote $out: $(wc -c < "$out") bytes, $(grep -c $'\f' "$out") book breaks" >&2
