package dev.idiom.services.soap;

import dev.idiom.services.app.Application;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
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

    private final transient Application app;

    public SoapEndpoint(Application app) {
        this.app = app;
    }

    @Override
    protected ConfigurationContext initConfigContext(ServletConfig config) throws ServletException {
        try {
            URL axis2xml = SoapEndpoint.class.getResource("/axis2/axis2.xml");
            ConfigurationContext context = ConfigurationContextFactory.createConfigurationContextFromURIs(axis2xml, null);
            context.setProperty(Constants.CONTAINER_MANAGED, Constants.VALUE_TRUE);
            context.getAxisConfiguration().addService(service());
            return context;
        } catch (IOException e) {
            throw new ServletException("could not set up the SOAP endpoint: " + e.getMessage(), e);
        }
    }

    /**
     * Faults Axis2 raises before our receiver runs (malformed XML, a DOCTYPE, a body cut off at the
     * size limit, an unknown operation) carry no fault code: give them ours and the root cause.
     */
    @Override
    protected void handleFault(MessageContext context, OutputStream out, AxisFault e) throws AxisFault {
        if (e.getFaultCode() != null && !e.getFaultCode().getLocalPart().isEmpty() && e.getFaultCode().getNamespaceURI().equals(SoapXml.NS)) {
            super.handleFault(context, out, e);
            return;
        }
        String reason = e.getMessage();
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c.getMessage() != null) {
                reason = c.getMessage();
            }
        }
        if (reason != null && reason.contains("The endpoint reference (EPR) for the Operation not found")) {
            reason = "no such operation; the body's first element must be one of the WSDL's operations";
        }
        super.handleFault(context, out, new AxisFault("request refused: " + reason, new QName(SoapXml.NS, "Invalid", "de")));
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
