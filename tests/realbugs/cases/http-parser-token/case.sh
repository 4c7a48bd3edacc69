# http-parser-token: a request whose second header name has a space in it
# ("User Agent:" instead of "User-Agent:"): http_parser_execute stops at
# the space with HPE_INVALID_HEADER_TOKEN (README.md argues the truth)
PKG=http-parser
KIND=input
TRUTH_DIVERGE='^http_parser_execute$'
TRUTH_CAUSE='^http_parser_execute$'
TAGS='input-char'
SINGLE_THREADED=1

build() {
    rb_cc_prog "$2/serve" "-I." "" http_parser.c "$CASE/serve.c"
}

run_good() {
    printf 'GET /index.html HTTP/1.1\r\nHost: example\r\nUser-Agent: tt\r\nAccept: */*\r\n\r\n' >req.txt
    "$1/serve" req.txt
}
run_bad() {
    printf 'GET /index.html HTTP/1.1\r\nHost: example\r\nUser Agent: tt\r\nAccept: */*\r\n\r\n' >req.txt
    "$1/serve" req.txt
}
