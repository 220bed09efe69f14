package dev.idiom.events;

/**
 * Deliberate violations for the architecture tests (never scanned with the real code): an
 * upward import and every vendor library outside its adapter package.
 */
final class PlantedViolations {
    Object upward = dev.idiom.services.app.Application.class;
    Object[] vendors = {org.apache.axis2.AxisFault.class, org.glassfish.jersey.servlet.ServletContainer.class,
            org.apache.catalina.startup.Tomcat.class, org.ehcache.Cache.class, org.hibernate.Session.class, org.jbibtex.BibTeXEntry.class,
            org.jsoup.Jsoup.class, java.sql.Connection.class, org.flywaydb.core.Flyway.class, org.apache.lucene.search.IndexSearcher.class,
            io.micrometer.core.instrument.Timer.class, de.undercouch.citeproc.CSL.class, gg.jte.TemplateEngine.class};
}
