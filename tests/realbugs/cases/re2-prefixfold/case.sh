# re2-prefixfold: a fault patch (fault.patch): Regexp::RequiredPrefix
# takes the literal prefix's case folding from the concatenation's flags
# (this) instead of the literal's (re). For "^(?i:error): (.*)" the
# concatenation is outside the (?i:...) group: the prefix "error" is
# stored as case-sensitive when the RE2 is built, and every later match
# compares it with memcmp: "ERROR: " and "Error: " lines no longer match.
# The application (errlog.cc) finds 1 error where the log says 3, exit 1
# (README.md argues the ground truth)
PKG=re2
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='re2::RE2::Match\('
TRUTH_CAUSE='re2::Regexp::RequiredPrefix\('
TAGS='cxx regression corruption'
SINGLE_THREADED=1

# build: tests/realbugs/pkgs/re2.sh, with this folder's errlog.cc
build() { re2_build "$2/errlog" "$CASE/errlog.cc"; }

run_good() {
    printf '%s\n' 'error: disk /dev/sdb1 is 95% full' 'info: backup started' \
        'ERROR: fan 2 stopped' 'info: backup finished' \
        'Error: certificate expires in 3 days' '# 3 errors' >app.log
    "$1/errlog" app.log
}
run_bad() { run_good "$@"; }
