package dev.idiom.services.soap;

import dev.idiom.services.app.Application;
import dev.idiom.services.http.PublicUrl;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import javax.xml.namespace.QName;
import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.WSDL11ToAxisServiceBuilder;
import org.apache.axis2.transport.http.AxisServlet;

/**
 * Axis2's servlet, configured from our minimal axis2.xml with DigitalEntityService built from its
 * WSDL (served as written on {@code ?wsdl}, with the real address) and our message receiver.
 */
public final class SoapEndpoint extends AxisServlet {
    private static final QName SERVICE = new QName(SoapXml.NS, "DigitalEntityService");

    private static final String ADDRESS = "http://localhost:8080/services/DigitalEntityService";

    private final transient Application app;
    private final transient PublicUrl publicUrl;
    private final String wsdl;

    public SoapEndpoint(Application app, PublicUrl publicUrl) {
        this.app = app;
        this.publicUrl = publicUrl;
        try (InputStream in = SoapEndpoint.class.getResourceAsStream("/soap/DigitalEntityService.wsdl")) {
            this.wsdl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code ?wsdl} is the WSDL as written, its address the one the client reached us at (see
     * {@link PublicUrl}); other metadata queries ({@code ?wsdl2}, {@code ?xsd}) are not offered.
     */
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws ServletException, IOException {
        String query = req.getQueryString();
        if (query != null && query.equalsIgnoreCase("wsdl")) {
            res.setContentType("text/xml;charset=UTF-8");
            res.getWriter().write(wsdl.replace(ADDRESS, xmlEscaped(publicUrl.of(req) + "/services/DigitalEntityService")));
            return;
        }
        res.setStatus(404);
        res.setContentType("text/plain;charset=UTF-8");
        res.getWriter().write("the SOAP contract is at " + publicUrl.of(req) + "/services/DigitalEntityService?wsdl (WSDL 1.1, SOAP 1.1)\n");
    }

    /**
     * A SOAP 1.1 fault with Idiom's detail, for answers given before a request reaches Axis2
     * (servlet filters: no key, too large, busy).
     */
    public static String faultEnvelope(String code, String message) {
        String m = xmlEscaped(message).replace(">", "&gt;");
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<soapenv:Body><soapenv:Fault><faultcode xmlns:de=\"" + SoapXml.NS + "\">de:" + code + "</faultcode><faultstring>" + m
                + "</faultstring><detail><de:fault xmlns:de=\"" + SoapXml.NS + "\"><de:code>" + code + "</de:code><de:message>" + m
                + "</de:message></de:fault></detail></soapenv:Fault></soapenv:Body></soapenv:Envelope>";
    }

    private static String xmlEscaped(String s) {
        return s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }

    @Override
    protected ConfigurationContext initConfigContext(ServletConfig config) throws ServletException {
        try {
            return configuration(service());
        } catch (IOException e) {
            throw new ServletException("could not set up the SOAP endpoint: " + e.getMessage(), e);
        }
    }

    /** Axis2 configured from our minimal axis2.xml, container-managed, serving {@code service} alone. */
    public static ConfigurationContext configuration(AxisService service) throws AxisFault {
        URL axis2xml = SoapEndpoint.class.getResource("/axis2/axis2.xml");
        ConfigurationContext context = ConfigurationContextFactory.createConfigurationContextFromURIs(axis2xml, null);
        context.setProperty(Constants.CONTAINER_MANAGED, Constants.VALUE_TRUE);
        context.getAxisConfiguration().addService(service);
        return context;
    }

    /**
     * Faults Axis2 raises before our receiver runs (malformed XML, a DOCTYPE, a body cut off at the
     * size limit, an unknown operation, a header it must understand and does not) get the shape
     * the WSDL promises: our code in {@code detail/fault/code} and the root cause as the message.
     * SOAP's own codes ({@code MustUnderstand}, {@code VersionMismatch}) stay the fault code.
     */
    @Override
    protected void handleFault(MessageContext context, OutputStream out, AxisFault e) throws AxisFault {
        QName code = e.getFaultCode();
        if (code != null && code.getNamespaceURI().equals(SoapXml.NS) && e.getDetail() != null) {
            super.handleFault(context, out, e); // ours, from the receiver
            return;
        }
        String reason = SoapXml.rootMessage(e);
        if (reason != null && reason.contains("The endpoint reference (EPR) for the Operation not found")) {
            reason = "no such operation; the body's first element must be one of the WSDL's operations";
        }
        boolean soapCode = code != null && (code.getLocalPart().equals("MustUnderstand") || code.getLocalPart().equals("VersionMismatch"));
        String ours = soapCode ? code.getLocalPart() : code != null && code.getNamespaceURI().equals(SoapXml.NS) ? code.getLocalPart() : "Invalid";
        AxisFault fault = new AxisFault(soapCode ? reason : "request refused: " + reason, soapCode ? code : new QName(SoapXml.NS, ours, "de"));
        fault.setDetail(SoapXml.faultDetail(ours, fault.getMessage()));
        super.handleFault(context, out, fault);
    }

    private AxisService service() throws IOException {
        try (InputStream wsdl = SoapEndpoint.class.getResourceAsStream("/soap/DigitalEntityService.wsdl")) {
            WSDL11ToAxisServiceBuilder builder = new WSDL11ToAxisServiceBuilder(wsdl, SERVICE, "DigitalEntityServiceSoap11");
            builder.setServerSide(true);
            AxisService service = builder.populateService();
            service.setName("DigitalEntityService");
            service.addParameter("useOriginalwsdl", "true");
            service.addParameter("modifyUserWSDLPortAddress", "true");
            DigitalEntitySoap receiver = new DigitalEntitySoap(app);
            for (Iterator<AxisOperation> ops = service.getOperations(); ops.hasNext(); ) {
                ops.next().setMessageReceiver(receiver);
            }
            return service;
        } catch (AxisFault e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
