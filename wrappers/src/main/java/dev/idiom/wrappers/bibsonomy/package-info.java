/** BibSonomy's REST API (XML): Basic user:apikey, paged posts with next links, hashes that change on edit. */
package dev.idiom.wrappers.bibsonomy;
