package dev.idiom.services.soap;

import dev.idiom.services.app.Application;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Iterator;
import javax.xml.namespace.QName;
import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
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
