package dev.idiom.services.web;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import java.util.Map;

/**
 * The curator's pages: jte templates ({@code services/src/main/jte}) compiled to Java classes of
 * this package at build time, so a template that names a field wrongly fails the build, and every
 * value is escaped for where it stands (text, attribute, URL). One per mounted application: the
 * engine keeps the classes it loaded, and a stopped web application's loader must not serve the next.
 */
final class PageTemplates {
    private final TemplateEngine engine = TemplateEngine.createPrecompiled(null, ContentType.Html, PageTemplates.class.getClassLoader(),
            "dev.idiom.services.web");

    /** The template {@code name} (as {@code record.jte}) with these parameters, as HTML. */
    String render(String name, Map<String, Object> params) {
        StringOutput out = new StringOutput(8192);
        engine.render(name, params, out);
        return out.toString();
    }
}
