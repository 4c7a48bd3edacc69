# http-parser-te: CVE-2020-8287 (request smuggling): a request with
# "Transfer-Encoding: chunked" then "Transfer-Encoding: identity"; the
# fixed parser rejects it, the buggy one keeps F_CHUNKED from the first
# header and reads a chunked body (README.md argues the ground truth)
PKG=http-parser
KIND=patch
PATCH=debian/patches/CVE-2020-8287.patch
TRUTH_DIVERGE='^http_parser_execute$'
TRUTH_CAUSE='^http_parser_execute$'
TAGS='regression'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/serve" "-I." "" http_parser.c "$CASE/serve.c"
}

run_good() {
    printf 'POST /upload HTTP/1.1\r\nHost: example\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n2\r\nOK\r\n0\r\n\r\n' >req.txt
    "$1/serve" req.txt
}
run_bad() { run_good "$@"; }
