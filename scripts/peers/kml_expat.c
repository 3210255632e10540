/* The reading half of a KML import with expat (Debian's libexpat), fed in 1 MB chunks: every
 * element and text run of the file, each Placemark's name and each coordinates text parsed to
 * doubles. It writes nothing: the time is a lower bound for an import built on it. Built and run by
 * scripts/bench_kml_reader.py. */
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long placemarks, names, numbers;
    double sum;
    int inCoordinates, inName;
    char *text;
    size_t length, capacity;
} State;

static void start(void *data, const XML_Char *name, const XML_Char **attributes) {
    State *s = data;
    (void)attributes;
    if (!strcmp(name, "Placemark")) s->placemarks++;
    s->inCoordinates = !strcmp(name, "coordinates");
    s->inName = !strcmp(name, "name");
    s->length = 0;
}

static void end(void *data, const XML_Char *name) {
    State *s = data;
    (void)name;
    if (s->inName) s->names++;
    if (s->inCoordinates) {
        s->text[s->length] = 0;
        const char *p = s->text;
        char *stop;
        for (;;) {
            while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r' || *p == ',') p++;
            if (!*p) break;
            double value = strtod(p, &stop);
            if (stop == p) { fprintf(stderr, "bad number\n"); exit(1); }
            s->sum += value; s->numbers++; p = stop;
        }
    }
    s->inCoordinates = s->inName = 0;
    s->length = 0;
}

static void text(void *data, const XML_Char *chars, int count) {
    State *s = data;
    if (!s->inCoordinates && !s->inName) return;
    if (s->length + count + 1 > s->capacity) {
        s->capacity = (s->length + count + 1) * 2;
        s->text = realloc(s->text, s->capacity);
    }
    memcpy(s->text + s->length, chars, count);
    s->length += count;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s FILE.kml\n", argv[0]); return 2; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { fprintf(stderr, "cannot open %s\n", argv[1]); return 1; }
    State state = {0};
    XML_Parser parser = XML_ParserCreate(NULL);
    XML_SetUserData(parser, &state);
    XML_SetElementHandler(parser, start, end);
    XML_SetCharacterDataHandler(parser, text);
    static char chunk[1 << 20];
    for (;;) {
        size_t count = fread(chunk, 1, sizeof chunk, file);
        int last = count < sizeof chunk;
        if (XML_Parse(parser, chunk, (int)count, last) == XML_STATUS_ERROR) {
            fprintf(stderr, "parse error: %s\n", XML_ErrorString(XML_GetErrorCode(parser)));
            return 1;
        }
        if (last) break;
    }
    XML_ParserFree(parser);
    printf("%ld placemarks %ld names %ld numbers %.3f\n", state.placemarks, state.names, state.numbers,
           state.sum);
    return 0;
}
