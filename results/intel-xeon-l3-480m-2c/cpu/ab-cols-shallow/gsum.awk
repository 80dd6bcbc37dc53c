# summarize ab.sh output: geometric mean per type/trans, and lowest
{ split($2,a,"x"); key=$1" "$3; r=$5; s[key]+=log(r); c[key]++; if (!(key in mn) || r<mn[key]) {mn[key]=r; ms[key]=$2} }
END { for (k in s) printf "%s n=%d gm %.3f min %.3f (%s)\n", k, c[k], exp(s[k]/c[k]), mn[k], ms[k] }
