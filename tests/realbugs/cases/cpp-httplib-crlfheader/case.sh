# cpp-httplib-crlfheader: a Debian patch reversed: CVE-2023-26130's fix
# (debian/patches/cve-2023-26130.patch, upstream 5b397d4: the client sets
# its own headers with Request::set_header, which refuses a value with CR
# or LF, instead of emplacing them). A notes service and its sync client in
# one process: part 8 of a document is uploaded with a content type that
# carries "\r\nX-Upload-Mode: replace"; without the fix the service sees
# that header and replaces the document, and the client finds 5 of its 12
# parts when it reads it back (README.md argues the ground truth)
PKG=cpp-httplib
KIND=patch
PATCH=debian/patches/cve-2023-26130.patch
TRUTH_DIVERGE='^httplib::ClientImpl::send_with_content_provider\(httplib::Request&'
TRUTH_CAUSE='^httplib::ClientImpl::send_with_content_provider\(httplib::Request&'
# values: Post and both send_with_content_provider overloads are inlined
# into main in the bad build; the good build keeps the Request& one (nm;
# README.md): the calls part in main; the cause is either name
TRUTH_DIVERGE_VALUES='^main$'
TRUTH_CAUSE_VALUES='^(httplib::ClientImpl::send_with_content_provider\(httplib::Request&|main$)'
TAGS='cxx thread regression corruption'
SINGLE_THREADED=0

# the header (Debian's tree, the patch in or reversed) and this folder's
# app.cc
build() {
    rb_cc_prog "$2/app" "-I." "-pthread" "$CASE/app.cc"
}

run_good() { "$1/app"; }
run_bad() { run_good "$@"; }
