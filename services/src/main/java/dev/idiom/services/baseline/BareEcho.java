package dev.idiom.services.baseline;

import dev.idiom.services.soap.SoapEndpoint;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.InOutAxisOperation;
import org.apache.axis2.receivers.RawXMLINOutMessageReceiver;
import org.apache.axis2.transport.http.AxisServlet;

/**
 * Axis2 alone: its stock servlet and raw-XML receiver with one service, {@code EchoService}, whose
 * {@code echo} answers the body element it was sent. Same axis2.xml as Idiom's endpoint, so the
 * difference to Idiom's {@code empty} is Idiom's filters, receiver and application layer.
 */
public final class BareEcho extends AxisServlet {
    /** The service class Axis2 instantiates and calls by reflection, as for any POJO service. */
    public static final class EchoService {
        public OMElement echo(OMElement body) {
            return body.cloneOMElement();
        }
    }

    /**
     * Axis2's servlet reuses "the" configuration it finds in a servlet-context attribute and leaves
     * its own there: this second Axis2 in the context must neither take Idiom's nor leave its own.
     */
    @Override
    public void init(ServletConfig config) throws ServletException {
        ServletContext context = config.getServletContext();
        Object idioms = context.getAttribute(CONFIGURATION_CONTEXT);
        context.removeAttribute(CONFIGURATION_CONTEXT);
        super.init(config);
        if (idioms != null) {
            context.setAttribute(CONFIGURATION_CONTEXT, idioms);
        } else {
            context.removeAttribute(CONFIGURATION_CONTEXT);
        }
    }

    @Override
    protected ConfigurationContext initConfigContext(ServletConfig config) throws ServletException {
        try {
            AxisService service = new AxisService("EchoService");
            service.addParameter(Constants.SERVICE_CLASS, EchoService.class.getName());
            AxisOperation echo = new InOutAxisOperation(new QName("echo"));
            echo.setMessageReceiver(new RawXMLINOutMessageReceiver());
            service.addOperation(echo);
            service.mapActionToOperation("urn:echo", echo);
            return SoapEndpoint.configuration(service); // the same axis2.xml as Idiom's endpoint
        } catch (AxisFault e) {
            throw new ServletException("could not set up the bare Axis2 echo service: " + e.getMessage(), e);
        }
    }
}
