/**
 * Citations out, as DOI content negotiation gives them: a DE's record as CSL-JSON, BibTeX, RIS, or a
 * bibliography entry formatted by a CSL style (citeproc-java with the CSL project's styles and
 * locales). Read-only views of the canonical record; the protocols pick the format.
 */
package dev.idiom.services.citations;
