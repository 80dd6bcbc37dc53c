# one line per ab-gemm run: environment, type, shape, transposes, new/before (lines), copy/before
/^# env/ { e = $3; t = $0; sub(/.*TRANS=/, "", t); sub(/ .*/, "", t) }
/^[sd] [0-9]+x/ { ty = $1; sh = $2 }
/rate \// { n++; r = $0; sub(/.*: /, "", r)
  if (n % 2 == 1) new = r; else printf "%-16s %s %-10s %s  new %s  copy %s\n", e, ty, sh, t, new, r }
