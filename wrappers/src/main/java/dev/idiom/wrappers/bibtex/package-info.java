/** A BibTeX file as JabRef keeps it, read and written with jbibtex; fields Idiom does not model are kept. */
package dev.idiom.wrappers.bibtex;
