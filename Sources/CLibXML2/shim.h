// libxml2's headers pull in the system ICU, which clashes with Foundation's own ICU
// ("'UErrorCode' has different definitions"); turn ICU off before any other libxml include.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/HTMLparser.h>
#include <libxml/xmlreader.h>
