package dev.idiom.services;

import java.io.StringReader;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** Parses responses in tests and reads them by local name (namespace prefixes vary). */
final class Xml {
    private Xml() {}

    static Document parse(String xml) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return f.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
        } catch (Exception e) {
            throw new AssertionError("not well-formed XML: " + xml, e);
        }
    }

    /** Text of the first element with this local name (path of local names separated by /). */
    static String text(Document d, String path) {
        StringBuilder xp = new StringBuilder();
        for (String step : path.split("/")) {
            xp.append("//*[local-name()='").append(step).append("']");
        }
        try {
            return (String) XPathFactory.newInstance().newXPath().evaluate(xp.toString(), d, XPathConstants.STRING);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static int count(Document d, String localName) {
        try {
            return ((NodeList) XPathFactory.newInstance().newXPath().evaluate("//*[local-name()='" + localName + "']", d, XPathConstants.NODESET))
                    .getLength();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
