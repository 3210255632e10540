/* The reading half of a KML import with libxml2's streaming reader (xmlTextReader, Debian's
 * libxml2): every element and text node of the file, each Placemark's name and each coordinates
 * text parsed to doubles. It writes nothing: the time is a lower bound for an import built on it.
 * Built and run by scripts/bench_kml_reader.py. */
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s FILE.kml\n", argv[0]); return 2; }
    xmlTextReaderPtr reader = xmlReaderForFile(argv[1], NULL, XML_PARSE_NONET | XML_PARSE_HUGE);
    if (!reader) { fprintf(stderr, "cannot open %s\n", argv[1]); return 1; }
    long placemarks = 0, names = 0, numbers = 0;
    double sum = 0;
    int inCoordinates = 0, inName = 0, status;
    while ((status = xmlTextReaderRead(reader)) == 1) {
        int type = xmlTextReaderNodeType(reader);
        const xmlChar *local = xmlTextReaderConstLocalName(reader);
        if (type == XML_READER_TYPE_ELEMENT) {
            if (xmlStrEqual(local, BAD_CAST "Placemark")) placemarks++;
            inCoordinates = xmlStrEqual(local, BAD_CAST "coordinates");
            inName = xmlStrEqual(local, BAD_CAST "name");
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            inCoordinates = inName = 0;
        } else if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA) {
            const char *text = (const char *)xmlTextReaderConstValue(reader);
            if (inName) names++;
            if (inCoordinates) {
                const char *p = text;
                char *end;
                for (;;) {
                    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r' || *p == ',') p++;
                    if (!*p) break;
                    double value = strtod(p, &end);
                    if (end == p) { fprintf(stderr, "bad number\n"); return 1; }
                    sum += value; numbers++; p = end;
                }
            }
        }
    }
    if (status != 0) { fprintf(stderr, "parse error\n"); return 1; }
    xmlFreeTextReader(reader);
    printf("%ld placemarks %ld names %ld numbers %.3f\n", placemarks, names, numbers, sum);
    return 0;
}
